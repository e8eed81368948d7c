"""The benchmark campaign behind benchmarks/campaign.py: presets (what to
measure), systems (how to run each program), runs (interleaved execution),
summary (aggregation and the markdown table) and plots."""
