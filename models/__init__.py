"""Where speech and language models live: the manifest of known models, finding installed ones
(`find_model`, `locate_whisper`), checking them before loading, and downloading, installing
from a zip and verifying them."""
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
from models.integrity import DamagedModel
from models.locate import check_before_loading, find_model, found_at, install_root, locate_whisper, search_places
from models.manifest import Manifest, ModelEntry, load_manifest
from models.verify import Verdict, verify

__all__ = [
    "BadArchive",
    "ChecksumMismatch",
    "DamagedModel",
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
    "check_before_loading",
    "download",
    "find_model",
    "found_at",
    "install_root",
    "install_zip",
    "load_manifest",
    "locate_whisper",
    "search_places",
    "verify",
]
