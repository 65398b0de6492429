# The two commands a newcomer needs: `make run` and `make test`.
# Everything is installed into .venv; the Rust engine is built in release mode.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SOURCES := pyproject.toml engine/Cargo.toml $(wildcard engine/src/*.rs engine/src/*/*.rs)

.PHONY: setup system-deps run test bench clean

setup: $(STAMP)

$(STAMP): $(SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: setup
	$(BIN)/winnable serve

# Debian's Chromium drives the browser tests and PostgreSQL backs the database tests;
# installed once when missing (as root, as on CI), skipped with a note otherwise.
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
		else echo "note: install$$missing (Debian packages) to run the browser and PostgreSQL tests"; fi; \
	fi

test: setup system-deps
	cd engine && cargo test --release --quiet
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python bench/black_hole.py

clean:
	rm -rf $(VENV) engine/target
