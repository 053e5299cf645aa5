"""What can go wrong finding, fetching or installing a model. Every message is one sentence
that says what happened and what to do, in the active catalog's language (games.language)."""
from __future__ import annotations


class ModelError(RuntimeError):
    """A model cannot be found, fetched or installed."""


class UnknownModel(ModelError):
    """The name is not in the model manifest."""


class ModelNotFound(ModelError):
    """The model is not installed in any of the places searched."""


class Offline(ModelError):
    """The download server cannot be reached (no network, refused, timed out)."""


class DownloadFailed(ModelError):
    """The server answered with an error or the transfer stopped early."""


class ChecksumMismatch(ModelError):
    """The archive's size or checksum differs from the manifest's."""


class BadArchive(ModelError):
    """The archive is not a readable zip, or it does not hold a model."""


class ManifestError(ModelError):
    """The manifest file cannot be read or is malformed."""
