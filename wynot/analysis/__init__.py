"""What the diff says about how changes depend on each other (pure).

One module per technique: the line scan and token changes of any language
(``lexical``), Python's ``ast`` (``python``, ``calls``), tree-sitter syntax
(``treesitter``), each change's identifiers (``symbols``), clusters by change
(``clusters``), dependencies between changes (``depends``), the whole diff's
analysis as one value (``model``), the search plan (``grouping``) and build
errors mapped back to changes (``resolve``).
"""
