# gym — common tasks. `make test` is what CI runs (through .ci/run and scripts/test.sh).
PREFIX ?= /usr/local

.PHONY: build release test test-release stress format lint demo bench docs report-screenshots fuzz startup-order install clean

build:
	swift build

release:
	./scripts/build-release.sh

test:
	./scripts/test.sh

# The crash, concurrency and hostile-input tests with GYM_STRESS times their iterations (default 10).
stress:
	GYM_STRESS=$${GYM_STRESS:-10} swift test --filter 'ConcurrencyTests|MigrateCrashTests|HostileInputTests|ExportCommandTests'

# The end-to-end tests against the static release binary that ships.
test-release:
	GYM_TEST_BINARY=$$(./scripts/build-release.sh) swift test --filter GymEndToEndTests

format:
	swift format format -i -r Sources Tests Plugins Package.swift

lint:
	swift format lint --strict -r Sources Tests Plugins Package.swift

demo:
	./scripts/demo.sh

# Release build, 1,000,000 workouts, side by side with the sqlite3 shell and sqlite-utils.
bench:
	./scripts/bench.sh

# libFuzzer on every parser of outside input, FUZZ_SECONDS each (default 60).
fuzz:
	./scripts/fuzz.sh

# scripts/startup-order.txt, from what the short commands of a release build touch (valgrind); the
# next release build links in that order. Rerun after a change that moves start-up code.
startup-order:
	python3 scripts/make-startup-order.py $$(./scripts/build-release.sh)

# Docs/Reference/: a page per command, the configuration and the man page, from gym's own help.
docs:
	swift package --allow-writing-to-package-directory generate-reference
	./scripts/report-screenshot.sh

# The report at 390 and 1280 px, from made-up sample data, into .build/report-screenshots/ for review.
report-screenshots:
	./scripts/report-screenshot.sh --widths

# The binary, its man page, and completions for bash, zsh and fish.
install: release
	install -d $(PREFIX)/bin $(PREFIX)/share/man/man1 $(PREFIX)/share/bash-completion/completions \
		$(PREFIX)/share/zsh/site-functions $(PREFIX)/share/fish/vendor_completions.d
	install -m 755 .build/release/gym $(PREFIX)/bin/gym
	install -m 644 Docs/Reference/gym.1 $(PREFIX)/share/man/man1/gym.1
	.build/release/gym completions bash > $(PREFIX)/share/bash-completion/completions/gym
	.build/release/gym completions zsh > $(PREFIX)/share/zsh/site-functions/_gym
	.build/release/gym completions fish > $(PREFIX)/share/fish/vendor_completions.d/gym.fish

clean:
	rm -rf .build
