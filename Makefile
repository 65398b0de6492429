# The two commands a newcomer needs: `make run` and `make test`.
# Everything is installed into .venv; the Rust engine is built in release mode.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SOURCES := pyproject.toml engine/Cargo.toml $(wildcard engine/src/*.rs engine/src/*/*.rs)

.PHONY: setup run test bench clean

setup: $(STAMP)

$(STAMP): $(SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: setup
	$(BIN)/winnable serve

test: setup
	cd engine && cargo test --release --quiet
	$(BIN)/python -m pytest -q

bench: setup
	$(BIN)/python bench/black_hole.py

clean:
	rm -rf $(VENV) engine/target
