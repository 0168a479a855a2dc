"""The Ethos-U weight codec: stream order (``weight_reorder``), the compressed bitstream's size per
depth slice (``weight_encoding`` with ``palette_sections`` and ``grc_search``) and the sizes a
schedule needs (``weight_size``); byte-exact with Vela's encoder on sizes."""
