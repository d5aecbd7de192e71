"""eggtimer benchmarks: eggtimer and its peers (a tick-counting loop, termdown, mpg123, aplay, sox)
measured side by side in one run (bench/README.md, docs/DESIGN.md "Benchmarks").

    python3 bench/bench.py --binary PATH/eggtimer            # full: writes BENCHMARKS.md
    python3 bench/bench.py --quick --binary PATH/eggtimer    # seconds; prints, writes bench/out/ only

The modules: harness (processes, pseudo-terminals, events), services (termdown, PulseAudio,
Mosquitto), procfs (/proc readings), stats (percentiles, medians, gap detection), figures (Figure,
Result), one module per group of figures (timing, stop, gapless, heard (with the memory while
speaking), cost, memory, startup, mqtt, kitchen, web (the kitchen over HTTP)), report (targets and the Markdown) and runner (the command line and the
order of a run). Python standard library only."""
