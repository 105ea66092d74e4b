# The course's commands. On a fresh machine `make lab` and `make test` are all the set-up:
# both create the virtual environment in .venv on first use.

SHELL := /bin/bash
.DEFAULT_GOAL := help
PYTHON ?= python3
# The course's environment: .venv, made here on first use; or, on a hub, the one installed
# for the whole machine (deploy/hub), named by COURSE_VENV and used as it is.
VENV := $(or $(COURSE_VENV),$(CURDIR)/.venv)
BIN := $(VENV)/bin
READY := $(VENV)/.ready
DEV_READY := $(VENV)/.dev-ready
DEV_EXTRAS := .[lab,dev]
LAB_SETTINGS := $(VENV)/share/jupyter/lab/settings/overrides.json
LAB_PORT ?= 8888

# nbgrader's commands (and `alembic`, which it calls) come from the venv, and its
# configuration from autograder/nbgrader_config.py.
export PATH := $(BIN):$(PATH)
export JUPYTER_CONFIG_PATH := $(CURDIR)/autograder
# Keep the venv's Jupyter settings and kernels apart from anything else on the machine.
export JUPYTER_PREFER_ENV_PATH := 1

.PHONY: help setup lab test test-fast lint format release check-release images bench clean progress \
	check browser \
	sandbox grade bench-grade bench-load student-release mutants export instructor lm-curve hub

# pip install $(1), showing each package as pip gets it; pip's full log goes to
# .venv/install.log and is shown whole only if the install fails.
define pip_install
	@$(BIN)/python -m pip install $(1) 2>&1 | tee $(VENV)/install.log \
		| sed -un 's/^Collecting \([^ ]*\).*/  getting \1/p'; \
		test $${PIPESTATUS[0]} = 0 || { cat $(VENV)/install.log; exit 1; }
endef

ifneq ($(COURSE_VENV),)
# An environment installed for the whole machine is never changed from here.
$(READY) $(DEV_READY):
	@test -x $(BIN)/python || { echo "COURSE_VENV=$(COURSE_VENV) holds no Python environment."; \
		exit 1; }
else
# What the notebooks need (make lab); re-runs when pyproject.toml or constraints.txt changes.
$(READY): pyproject.toml constraints.txt
	@test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	@echo "Installing the course environment into .venv (first time: a few minutes)..."
	$(call pip_install,-e '.[lab]' -c constraints.txt)
	@jupyter labextension enable @jupyter/nbgrader > /dev/null 2>&1
	@for ext in validate_assignment formgrader; do \
		jupyter server extension enable --sys-prefix nbgrader.server_extensions.$$ext > /dev/null 2>&1; done
	@touch $@

# What grading, tests and tools need on top: latex2mathml (feedback pages), pytest, ruff,
# mypy, Playwright, Dask (make grade, test, lint, bench).
$(DEV_READY): $(READY)
	@echo "Installing the tests' and tools' extras into .venv..."
	$(call pip_install,-e '$(DEV_EXTRAS)' -c constraints.txt)
	@touch $@
endif

## Say what each command does (its comment's first sentence here). `make` alone does this.
help:
	@awk '/^## / { text = text " " substr($$0, 4); next } \
		/^(\.|[A-Z_]+ *[?:]?=)/ { next } \
		/^[a-z-]+:/ && text { sub(/:.*/, ""); first = text; \
			if (match(text, /\. /)) first = substr(text, 1, RSTART); \
			printf "  make %-15s%s\n", $$0, first } \
		{ text = "" }' $(MAKEFILE_LIST)

## Create the course's environment in .venv (make lab and make test do it themselves).
setup: $(READY) $(LAB_SETTINGS)

# JupyterLab's settings for the course: no pop-up about Jupyter news over the first notebook.
$(LAB_SETTINGS): $(READY)
	@mkdir -p $(dir $@)
	@cp autograder/student_lab/lab_overrides.json $@

## Open the course in JupyterLab (localhost only) at the welcome notebook, as a student:
## Validate, without nbgrader's instructor tools (autograder/student_lab/).
lab: $(READY) $(LAB_SETTINGS)
	@echo "JupyterLab is starting; open the URL printed below (it carries the access token)."
	JUPYTER_CONFIG_PATH=$(CURDIR)/autograder/student_lab:$(CURDIR)/autograder \
		jupyter lab --no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port=$(LAB_PORT) \
		--ServerApp.root_dir=$(CURDIR) --LabApp.default_url=/lab/tree/notebooks/00_welcome.ipynb \
		$(if $(filter 0,$(shell id -u)),--allow-root)

## JupyterLab for instructors: nbgrader's Formgrader, Create Assignment and course tools,
## with nbgrader's exchange in grading/exchange.
instructor: $(READY) $(LAB_SETTINGS)
	@echo "JupyterLab is starting; open the URL printed below (it carries the access token)."
	jupyter lab --no-browser --ServerApp.ip=127.0.0.1 --ServerApp.port=$(LAB_PORT) \
		--ServerApp.root_dir=$(CURDIR) --LabApp.default_url=/formgrader \
		$(if $(filter 0,$(shell id -u)),--allow-root)

## Run every test: package, notebooks, release, real nbgrader end to end, the browser, the
## student release installed and used as a student would, lint. One test file to a worker,
## a worker to a core (TEST_WORKERS=0 runs them in this process); the slowest tests are listed.
## CI runs it with COURSE_REQUIRE_SANDBOX=1 (.ci/run): a test that needs the sandbox fails
## where none starts, rather than being skipped.
TEST_WORKERS ?= auto
test: $(DEV_READY) lint browser sandbox $(LAB_SETTINGS)
	@echo "Running every test: about 20 to 28 minutes on 2 cores (2 workers; dots show progress)."
	python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder --durations=15

## The loop while you work: lint and every test not marked slow (-m "not slow": nothing that
## runs nbgrader, a kernel, the sandbox, a browser, a notebook, a training run or a pipeline of
## processes; tests/conftest.py says how tests are marked), under 2 minutes on 2 cores.
## `make test` runs the slow ones too.
test-fast: $(DEV_READY) lint
	python -m pytest -n $(TEST_WORKERS) --dist loadfile --no-loadscope-reorder -m "not slow" \
		--durations=5

## System packages from Debian, installed with apt-get when missing and this user may (root,
## or sudo without a password); apt's output goes to test-artifacts/apt-<package>.log.
## Where one cannot be installed, the tests that need it are skipped and say why: these
## steps never fail the tests, but for the sandbox where COURSE_REQUIRE_SANDBOX=1 (CI): there
## `make sandbox` stops when bubblewrap is missing, and the tests that need it fail.
##   browser: Chromium, for tests/test_browser.py
##   sandbox: bubblewrap, which walls in each student's kernel during `make grade`
define apt_install
	@if ! command -v $(2) > /dev/null; then \
		if [ "$$(id -u)" = 0 ]; then sudo=; \
		elif command -v sudo > /dev/null && sudo -n true 2> /dev/null; then sudo="sudo -n"; \
		else sudo=none; fi; \
		log=$(CURDIR)/test-artifacts/apt-$(1).log; \
		if [ "$$sudo" = none ] || ! command -v apt-get > /dev/null; then \
			echo "No $(1), and no apt-get as root to install it: $(3)."; \
		else \
			mkdir -p $(CURDIR)/test-artifacts; \
			echo "Installing $(1) (apt-get, a minute or two)..."; \
			{ $$sudo apt-get update && $$sudo env DEBIAN_FRONTEND=noninteractive \
				apt-get install -y --no-install-recommends $(1); } > $$log 2>&1 \
			|| echo "Could not install $(1) (see $$log): $(3)."; \
		fi; \
	fi
endef

browser:
	$(call apt_install,chromium,chromium,the browser test will be skipped)

sandbox:
	$(call apt_install,bubblewrap,bwrap,the sandbox's tests will be skipped and make grade will stop and say what to do)
	@if [ "$$COURSE_REQUIRE_SANDBOX" = 1 ] && ! command -v bwrap > /dev/null; then \
		echo "COURSE_REQUIRE_SANDBOX=1, and bubblewrap (bwrap) is not installed: the tests of the" \
			"sandbox cannot run here."; exit 1; fi

CODE := transformer_course course_checks tests autograder images benchmarks deploy

## Check the code's style: formatted as `ruff format` writes it, and ruff's rules; and the
## types of autograder/ and course_checks/ (mypy, as pyproject.toml's [tool.mypy] sets it).
lint: $(DEV_READY)
	ruff format --check $(CODE)
	ruff check $(CODE)
	mypy

## Format the code (ruff format) and fix what ruff's rules can fix themselves.
format: $(DEV_READY)
	ruff format $(CODE)
	ruff check --fix $(CODE)

## Regenerate the student release notebooks/ from solutions/ (first bringing the source
## notebooks' set-up cells, self-check cells and embedded figures up to date).
release: $(READY)
	python -m autograder.releases.sync_notebooks
	python -m autograder.releases.release generate

## Build what students receive (no solutions, hidden tests or grading machinery) in
## dist/student-release, from notebooks generated afresh from solutions/ (never notebooks/ as
## it stands: differences are named), for the address it will be published at:
##   make student-release STUDENT_REPO=https://github.com/you/course-student
student-release: $(READY)
	python -m autograder.releases.student_release $(if $(STUDENT_REPO),--repo $(STUDENT_REPO))

## Fail if notebooks/ differs from what `make release` would generate.
check-release: $(READY)
	python -m autograder.releases.sync_notebooks --check
	python -m autograder.releases.release check

## Check one notebook as a student, without an instructor: make check NB=notebooks/01_.../01_....ipynb
check: $(READY)
	@test -n "$(NB)" || { echo "usage: make check NB=path/to/notebook.ipynb"; exit 2; }
	python -m course_checks.selfcheck --report-only $(NB)

## Your progress over every notebook in notebooks/: a table, and a chart in progress.png.
progress: $(READY)
	python -m course_checks.selfcheck --progress --chart progress.png notebooks

## Grade the class: every notebook in grading/submitted/<student>/<assignment>/, or first
## import a plain folder of <student>/<notebook>.ipynb with IMPORT=folder. Extra options for
## autograder/grading/grade.py in GRADE_ARGS (e.g. GRADE_ARGS="--assignment 01_vector_attention").
grade: $(DEV_READY) sandbox
	python -m autograder.grading $(if $(IMPORT),--import $(IMPORT)) $(GRADE_ARGS)

## Make this machine a JupyterHub for the course (as root, from the instructor's clone, which it
## never writes into): users from a class list, one environment for every server, nbgrader's
## exchange, the servers' configuration (deploy/hub/install.py; docs/hub.md).
##   sudo make hub INSTRUCTOR=ann STUDENTS=class.txt [HUB_ARGS="--ip 0.0.0.0 --port 8000"]
hub:
	@test -n "$(INSTRUCTOR)" -a -n "$(STUDENTS)" || { \
		echo "usage: sudo make hub INSTRUCTOR=<user> STUDENTS=<class list, a name a line>"; exit 2; }
	python3 deploy/hub/install.py --instructor $(INSTRUCTOR) --students $(STUDENTS) $(HUB_ARGS)

## nbgrader's own export of the gradebook that `make grade` fills: grading/nbgrader_grades.csv
## (`make grade` also writes grading/grades.csv, with the course's notes and exercise titles).
export: $(READY)
	nbgrader export --to grading/nbgrader_grades.csv

## Mutation analysis: every mutant of every reference answer against its exercise's checks
## (over ten minutes for all 55 exercises on 2 cores); prints a table per notebook and fails
## below 99% killed for any exercise.
## MUTANTS_ARGS picks notebooks or a sample, e.g. MUTANTS_ARGS="02 05 --sample 8".
mutants: $(READY)
	python -m autograder.mutation $(MUTANTS_ARGS)

## Time grading a synthetic class with plain sequential nbgrader and with `make grade`
## (STUDENTS=40 by default; tens of minutes on 2 cores). Writes benchmarks/grading.md and its
## table in docs/performance.md.
bench-grade: $(DEV_READY) sandbox
	python benchmarks/grade_bench.py --students $(or $(STUDENTS),40)

## Notebook 08's model trained for 4,000 steps (4 to 9 minutes) with the same code: its held-out curve
## (bits per character against training FLOPs) goes to transformer_course/lm_curve.csv,
## which the notebook plots. LM_CURVE_ARGS: e.g. "--seconds 300" or "--threads 1".
lm-curve: $(READY)
	python benchmarks/lm_curve.py $(LM_CURVE_ARGS)
## Time 07's and 08's training steps and a class's grading, quiet and under a load of four
## busy processes, against each one's fair share (a few minutes). Writes benchmarks/load.md
## and its table in docs/performance.md.
bench-load: $(DEV_READY) sandbox
	python benchmarks/load_bench.py

## Notebook 09's comparison of the 08 decoder and the modern one (6 models × 3 seeds, about
## 50 minutes on 2 cores): writes transformer_course/modern_results.json, which 09 plots.
.PHONY: modern-runs
modern-runs: $(READY)
	python benchmarks/modern_decoder.py

## Redraw the figures in images/ from images/make_images.py.
images: $(READY)
	python images/make_images.py

## Measure the course and the package (a few minutes); writes benchmarks/results.md and its
## tables in docs/performance.md.
bench: $(DEV_READY)
	python benchmarks/run.py

## Remove what grading, releases and tools wrote here (grading/, dist/, caches); .venv stays.
clean:
	rm -rf grading dist .pytest_cache .ruff_cache .mypy_cache
