"""The fault catalog by spec file: each module holds the faults that break the promises of one file of specs/."""
