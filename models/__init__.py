"""Where speech and language models live: the manifest of known models, finding installed ones
(`find_model`), and downloading, installing from a zip and verifying them."""
from models.errors import (
    BadArchive,
    ChecksumMismatch,
    DownloadFailed,
    ManifestError,
    ModelError,
    ModelNotFound,
    Offline,
    UnknownModel,
)
from models.install import Installed, download, install_zip
from models.locate import find_model, install_root, search_places
from models.manifest import Manifest, ModelEntry, load_manifest
from models.verify import Verdict, verify

__all__ = [
    "BadArchive",
    "ChecksumMismatch",
    "DownloadFailed",
    "Installed",
    "Manifest",
    "ManifestError",
    "ModelEntry",
    "ModelError",
    "ModelNotFound",
    "Offline",
    "UnknownModel",
    "Verdict",
    "download",
    "find_model",
    "install_root",
    "install_zip",
    "load_manifest",
    "search_places",
    "verify",
]
