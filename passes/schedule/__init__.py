"""The scheduling passes: each makes one kind of decision and writes it into the IR
(docs/attributes.md says how), so the ``schedule`` pipeline's steps can run alone on
a printed module, be checked by npu-check-schedule, and be recombined by other search strategies.
"""
