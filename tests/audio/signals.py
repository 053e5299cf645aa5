"""Measuring recorded sound against what was played or fed."""
from __future__ import annotations

import numpy as np


def samples(pcm: bytes) -> np.ndarray:
    return np.frombuffer(pcm, dtype="<i2").astype(np.float64)


def audible_seconds(pcm: bytes, rate: int, threshold: float = 1000) -> float:
    """From the first to the last sample louder than `threshold` (0 if none is)."""
    loud = np.flatnonzero(np.abs(samples(pcm)) > threshold)
    return 0.0 if not len(loud) else (loud[-1] - loud[0]) / rate


def best_alignment(recorded: bytes, source: bytes) -> tuple[int, float]:
    """Where `source` lies in `recorded` (a sample offset) and how alike they are there
    (normalised correlation: 1 is identical up to loudness, 0 unrelated)."""
    heard, wanted = samples(recorded), samples(source)
    assert len(heard) >= len(wanted), "the recording is shorter than what was fed"
    size = 1 << (len(heard) + len(wanted)).bit_length()
    correlation = np.fft.irfft(np.fft.rfft(heard, size) * np.conj(np.fft.rfft(wanted, size)), size)
    offset = int(np.argmax(correlation[: len(heard) - len(wanted) + 1]))
    segment = heard[offset: offset + len(wanted)]
    return offset, float(segment @ wanted / (np.linalg.norm(segment) * np.linalg.norm(wanted)))
