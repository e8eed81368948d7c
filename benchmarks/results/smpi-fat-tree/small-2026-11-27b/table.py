#!/usr/bin/python3
"""Tables of the small preset's fourth run (results.jsonl) and of its two
re-predictions (repredicted/: 1f11588's model, repredicted-9a5e177/).

    table.py [strong|weak|methods|placement|auto|model|beyond]   (default: strong)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scale"))
import report  # noqa: E402

RUN = report.load(os.path.join(HERE, "results.jsonl"))
AGAIN = report.load(os.path.join(HERE, "repredicted-9a5e177", "results.jsonl"))
TABLES = {
    "strong": lambda: report.strong_table(RUN),
    "weak": lambda: report.weak_table(RUN),
    "methods": lambda: report.methods_table(RUN, AGAIN, "9a5e177 (in sample)"),
    "placement": lambda: report.placement_table(RUN),
    "auto": lambda: report.auto_table(RUN),
    "model": lambda: report.model_table(RUN, [("as run, 3f3da14 (out of sample)", RUN),
                                              ("9a5e177 (in sample)", AGAIN)]),
    "beyond": lambda: report.beyond_table([("as run, 3f3da14", RUN),
                                           ("1f11588", report.load(os.path.join(HERE, "repredicted",
                                                                                "results.jsonl"))),
                                           ("9a5e177", AGAIN)]),
}

if __name__ == "__main__":
    report.main(sys.argv, TABLES, "strong")
