#!/usr/bin/env python3
"""A misbehaving external policy: it answers every instance with a line
that is not a schedule, which netsched reports in an error row naming it
(where the schedule reader stopped)."""

import sys

for line in sys.stdin:
    print("schedule? what schedule?", flush=True)
