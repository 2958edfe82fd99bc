# Two commands do all set-up on a fresh machine: `make demo` and `make test`.
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
STAMP  := $(VENV)/.setlab-installed

.PHONY: demo test test-slow lint bench clean clean-kernels browser

# A venv without a working pip (python3-venv missing when it was made, or a half-made one) is
# made again rather than reused.
$(STAMP): pyproject.toml
	$(PY) -m pip --version >/dev/null 2>&1 || { rm -rf $(VENV) && $(PYTHON) -m venv $(VENV); }
	$(PY) -m pip install --quiet --disable-pip-version-check -e '.[dev]'
	touch $(STAMP)

demo: $(STAMP)
	$(VENV)/bin/setlab reproduce

# The default suite runs on two pytest-xdist workers (CI's two cores; about 1.5x faster, and
# under 3 GB together). TEST_WORKERS=0 runs it in one process. Work stealing keeps both workers
# busy to the end: with xdist's default split one worker idled its last 71 s (of 527).
TEST_WORKERS ?= 2

test: $(STAMP) browser
	$(PY) -m pytest -q -n $(TEST_WORKERS) --dist worksteal

# The browser tests drive Debian's Chromium: installed when missing and possible (root on Debian);
# where it cannot be had, those tests skip with one line saying so.
browser:
	@command -v chromium >/dev/null || { [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null && \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium; } \
	  >/dev/null 2>&1 || echo "note: Chromium could not be installed; the browser tests will skip"

test-slow: $(STAMP)
	$(PY) -m pytest -q -m slow

lint: $(STAMP)
	$(VENV)/bin/ruff check .

bench: $(STAMP)
	for f in benchmarks/[!_]*.py; do echo "== $$f"; $(PY) $$f || exit 1; done

clean: clean-kernels
	rm -rf $(VENV) build src/*.egg-info

# numba's compiled kernels, cached beside the source: drop them after editing kernels while
# long jobs ran (a stale cache once gave a wrong split maximum in a working tree)
clean-kernels:
	find src \( -name '*.nbi' -o -name '*.nbc' \) -delete
