"""HTML statistics reports: one self-contained file per run, and a JSON sidecar with the same
numbers. :mod:`.model` gathers the numbers, :mod:`.charts` draws them, :mod:`.render` lays out
the page from the templates in ``templates/``."""
