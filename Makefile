# gym — common tasks. `make test` is what CI runs (through .ci/run and scripts/test.sh).
PREFIX ?= /usr/local
SWIFT_RELEASE = swift build -c release --product gym --static-swift-stdlib -Xlinker -no-pie

.PHONY: build release test format lint demo bench install clean

build:
	swift build

release:
	$(SWIFT_RELEASE)

test:
	./scripts/test.sh

format:
	swift format format -i -r Sources Tests Package.swift

lint:
	swift format lint --strict -r Sources Tests Package.swift

demo:
	./scripts/demo.sh

# Release build, 1,000,000 workouts, side by side with the sqlite3 shell and sqlite-utils.
bench:
	./scripts/bench.sh

install: release
	install -d $(PREFIX)/bin
	install -m 755 .build/release/gym $(PREFIX)/bin/gym

clean:
	rm -rf .build
