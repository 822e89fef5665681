# Build: the official Swift 6 image compiles a release binary with the Swift runtime linked in.
FROM swift:6.1-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libsqlite3-dev zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
RUN swift build -c release --product gym --static-swift-stdlib -Xlinker -no-pie \
    && cp "$(swift build -c release --static-swift-stdlib -Xlinker -no-pie --show-bin-path)/gym" /usr/local/bin/gym

# Run: a slim Debian with only the system libraries gym links against.
FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends libsqlite3-0 zlib1g ca-certificates tzdata \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 gym \
    && mkdir -p /data /exports && chown gym:gym /data /exports
COPY --from=build /usr/local/bin/gym /usr/local/bin/gym
USER gym
ENV GYM_DATABASE=/data/gym.sqlite
VOLUME ["/data", "/exports"]
ENTRYPOINT ["gym"]
CMD ["history", "list"]
