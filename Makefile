# The commands a newcomer needs: `make run`, `make check` (the fast loop: the lints and the
# tests that need no browser, PostgreSQL, Redis or fc-solve) and `make test` (everything,
# what CI runs). Everything is installed into .venv; the Rust engine is built in release mode.

PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
SOURCES := pyproject.toml engine/Cargo.toml $(wildcard engine/src/*.rs engine/src/*/*.rs)

.PHONY: setup system-deps run lint check test bench clean messages

# The tests `make check` leaves to `make test` (markers: [tool.pytest.ini_options]).
FAST := not browser and not postgres and not redis and not fcsolve and not slow
# The files `ruff format --check` holds to the format: the whole tree.
RUFF_FORMAT_FILES ?= .
PYTEST := $(BIN)/python -m pytest -q -n auto

setup: $(STAMP)

$(STAMP): $(SOURCES)
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

run: setup
	$(BIN)/winnable serve

# Debian's Chromium drives the browser tests, PostgreSQL backs the database tests,
# freecell-solver-bin (fc-solve, make-microsoft-freecell-board) cross-checks the free-cell
# verdicts and deals, Redis holds shared rate-limit counts; installed once when missing
# (as root, as on CI), skipped with a note otherwise. Under CI=true (.ci/run) a test whose
# tool is missing fails instead of skipping (tests/helpers/required.py).
system-deps:
	@missing=""; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	command -v fc-solve >/dev/null 2>&1 || missing="$$missing freecell-solver-bin"; \
	command -v redis-server >/dev/null 2>&1 || missing="$$missing redis-server"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null; then \
			echo "installing$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $$missing >/dev/null; \
		else echo "note: install$$missing (Debian packages) to run the browser, PostgreSQL, fc-solve and Redis tests"; fi; \
	fi

# The style and the layers: Python (ruff: [tool.ruff] in pyproject.toml), Rust (rustfmt.toml;
# clippy: [lints] in engine/Cargo.toml), JavaScript (oxlint: .oxlintrc.json, no import
# cycles), the import contracts and the types.
lint: setup
	$(BIN)/ruff check .
	$(BIN)/ruff format --check $(RUFF_FORMAT_FILES)
	$(BIN)/oxlint --config .oxlintrc.json --deny-warnings src/winnable/web/pages/static/js
	cd engine && cargo fmt --check
	cd engine && cargo clippy --release --quiet -- -D warnings
	$(BIN)/lint-imports  # the layers and no cycles: [tool.importlinter] in pyproject.toml
	$(BIN)/mypy  # src/ in strict mode: [tool.mypy] in pyproject.toml

# The fast loop, before every commit: the lints, then the tests on every core but those
# marked browser, postgres, redis, fcsolve or slow.
check: lint
	$(PYTEST) -m "$(FAST)"

# Everything (what .ci/run calls): the lints, the engine's own tests, every test. The
# Hypothesis profile `ci` tries the full number of examples (tests/conftest.py).
test: lint system-deps
	cd engine && cargo test --release --quiet
	HYPOTHESIS_PROFILE=ci $(PYTEST)

# Gather every string players read into the catalogue template and merge it into the
# French and Dutch catalogues (new strings arrive empty, changed ones fuzzy: translate them;
# tests/test_i18n.py fails until every entry is translated and none is fuzzy).
LOCALE_DIR := src/winnable/web/pages/locale
messages: setup
	$(BIN)/pybabel extract -F babel.cfg -k t -k tn:1,2 -k tp:1c,2 -k NP_:1,2 -c "Translators:" \
		--add-location=file --no-wrap --project=Winnable --copyright-holder="Winnable" \
		-o $(LOCALE_DIR)/messages.pot .
	$(BIN)/pybabel update -i $(LOCALE_DIR)/messages.pot -d $(LOCALE_DIR) --no-wrap --ignore-obsolete

bench: setup
	$(BIN)/python bench/black_hole.py

clean:
	rm -rf $(VENV) engine/target
