"""TFLite flatbuffers to and from the tfl dialect: ``import_tflite`` and ``export_tflite``."""
from __future__ import annotations

from npu_opt.dialects.tfl.tflite.exporter import export_tflite
from npu_opt.dialects.tfl.tflite.importer import import_tflite, is_tflite

__all__ = ["import_tflite", "export_tflite", "is_tflite"]
