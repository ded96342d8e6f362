"""Game nights remembered: each finished table's play, kept after the table itself expires.

Importing this package stays cheap: the write path imports `record` from here.
"""
