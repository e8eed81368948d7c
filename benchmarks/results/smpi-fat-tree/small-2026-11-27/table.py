#!/usr/bin/python3
"""Tables of the small preset's third run (results.jsonl) and of its
re-prediction by a later model (repredicted/, revision f419419).

    table.py [strong|weak|methods|placement|auto|model|beyond]   (default: model)
"""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "..", "..", "scale"))
import report  # noqa: E402

RUN = report.load(os.path.join(HERE, "results.jsonl"))
AGAIN = report.load(os.path.join(HERE, "repredicted", "results.jsonl"))
TABLES = {
    "strong": lambda: report.strong_table(RUN),
    "weak": lambda: report.weak_table(RUN),
    "methods": lambda: report.methods_table(RUN, AGAIN, "f419419 (in sample)"),
    "placement": lambda: report.placement_table(RUN),
    "auto": lambda: report.auto_table(RUN),
    "model": lambda: report.model_table(RUN, [("as run, 7b1aef5 (out of sample)", RUN),
                                              ("f419419 (in sample)", AGAIN)]),
    "beyond": lambda: report.beyond_table([("as run, 7b1aef5", RUN), ("f419419", AGAIN)]),
}

if __name__ == "__main__":
    report.main(sys.argv, TABLES, "model")
