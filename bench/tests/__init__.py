"""Unit tests of the benchmark's statistics, gap detection, figures and /proc readings (standard
library unittest; `make test` runs them with `python3 -B -m bench.tests`)."""
