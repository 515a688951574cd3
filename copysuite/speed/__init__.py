"""What makes a run fast and robust, apart from what it checks: xdist scheduling that keeps an entry's cells on one
worker (scheduling.py), one timeout thread per process (watchdog.py) and workers that skip the interpreter teardown
(quick_exit.py). The scheduler is used only when xdist's default `--dist load` is in effect; the other two are
pytest hooks the plugin registers.
"""
