# The course's commands. On a fresh machine `make lab` and `make test` are all the set-up:
# both create the virtual environment in .venv on first use.

PYTHON ?= python3
VENV := $(CURDIR)/.venv
BIN := $(VENV)/bin
READY := $(VENV)/.ready
LAB_PORT ?= 8888

# nbgrader's commands (and `alembic`, which it calls) come from the venv, and its
# configuration from autograder/nbgrader_config.py.
export PATH := $(BIN):$(PATH)
export JUPYTER_CONFIG_PATH := $(CURDIR)/autograder
# Keep the venv's Jupyter settings and kernels apart from anything else on the machine.
export JUPYTER_PREFER_ENV_PATH := 1

.PHONY: setup lab test lint release check-release images bench clean

# Re-runs when pyproject.toml changes. pip's full log goes to .venv/install.log and is
# shown only if the install fails.
$(READY): pyproject.toml
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing the course environment into .venv (first time: a few minutes)..."
	@$(BIN)/python -m pip install -e '.[dev]' > $(VENV)/install.log 2>&1 \
		|| { cat $(VENV)/install.log; exit 1; }
	@jupyter labextension enable @jupyter/nbgrader > /dev/null 2>&1
	@for ext in validate_assignment formgrader; do \
		jupyter server extension enable --sys-prefix nbgrader.server_extensions.$$ext > /dev/null 2>&1; done
	@touch $@

setup: $(READY)

## Open the course in JupyterLab (localhost only), with the student notebooks in view.
lab: $(READY)
	@echo "JupyterLab is starting; open the URL printed below (it carries the access token)."
	jupyter lab --no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port=$(LAB_PORT) \
		--ServerApp.root_dir=$(CURDIR) --LabApp.default_url=/lab/tree/notebooks \
		$(if $(filter 0,$(shell id -u)),--allow-root)

## Run every test: package, notebooks, release, real nbgrader end to end, lint.
test: lint
	python -m pytest

lint: $(READY)
	ruff check transformer_course tests autograder images benchmarks

## Regenerate the student release notebooks/ from solutions/.
release: $(READY)
	python autograder/release.py generate

## Fail if notebooks/ differs from what `make release` would generate.
check-release: $(READY)
	python autograder/release.py check

## Redraw the figures in images/ from images/make_images.py.
images: $(READY)
	python images/make_images.py

## Measure the course and the package (a few minutes); writes benchmarks/results.md and the
## README's Performance section.
bench: $(READY)
	python benchmarks/run.py

clean:
	rm -rf grading .pytest_cache .ruff_cache
