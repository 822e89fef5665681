# Build: the official Swift 6 image compiles gym into one static executable (scripts/build-release.sh).
FROM swift:6.1-bookworm AS build
RUN apt-get update && apt-get install -y --no-install-recommends libsqlite3-dev zlib1g-dev \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY Package.swift ./
COPY Sources ./Sources
COPY Tests ./Tests
# The build-tool plugins: the muscle map embedded from Config/, the commit (unknown here: no .git).
COPY Plugins ./Plugins
COPY Config ./Config
# The release link places what a short command touches first (scripts/startup-order.txt).
COPY scripts/build-release.sh scripts/startup-order.txt ./scripts/
RUN cp "$(bash scripts/build-release.sh)" /usr/local/bin/gym

# Run: a slim Debian of the same release (glibc's user lookups load its NSS modules at run time).
FROM debian:bookworm-slim
# rclone copies exports to remotes (export.remote, --remote).
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates tzdata rclone \
    && rm -rf /var/lib/apt/lists/* \
    && useradd --create-home --uid 10001 gym \
    && mkdir -p /data /exports && chown gym:gym /data /exports
COPY --from=build /usr/local/bin/gym /usr/local/bin/gym
USER gym
ENV GYM_DATABASE=/data/gym.sqlite
VOLUME ["/data", "/exports"]
ENTRYPOINT ["gym"]
CMD ["history", "list"]
