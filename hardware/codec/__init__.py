"""The Ethos-U weight codec: stream order (``weight_reorder``), the compressed bytes of a stream,
byte for byte Vela's (``weight_encoding`` with the C extension ``mlw_core``), an op's streams and
their sizes per depth slice and core (``weight_size``), and the buffer the NPU reads
(``scale_bias``, ``weight_buffer``). Design notes: docs/weight_codec.md."""
