.PHONY: play test release-check bench package screenshots

play:
	python3 scripts/bootstrap.py play

test:
	python3 scripts/bootstrap.py test

bench:
	.venv/bin/python -m benchmarks

package:
	.venv/bin/python packaging/build.py

screenshots:
	QT_QPA_PLATFORM=offscreen .venv/bin/python scripts/screenshots.py

release-check:
	python3 scripts/release_check.py --write docs/release-check.md
