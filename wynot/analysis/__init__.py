"""What the diff says about how changes depend on each other (pure).

One module per technique: identifiers and Python syntax (``symbols``,
``calls``), dependencies between changes (``depends``), the search plan
(``grouping``) and build errors mapped back to changes (``resolve``).
"""
