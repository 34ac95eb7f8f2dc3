"""`curator bundle sign` / `verify --key`: who built a bundle, as an Ed25519 signature.

`bundle verify` alone proves every file matches the manifest; someone who rewrites the
manifest too passes it. A signature over the manifest's bytes (which hold every file's
sha256) closes that: a consumer with the builder's public key knows the bundle is the one
that key signed. The signature is detached, next to the bundle (bundles/1.0.0.sig), and
the same for its directory and its archive (both hold the same manifest.json).

Keys are PEM files in the formats OpenSSL writes:
    openssl genpkey -algorithm ed25519 -out builder.pem            # private: keep it
    openssl pkey -in builder.pem -pubout -out builder.pub.pem      # public: share it
The `cryptography` package does the Ed25519 work; nothing here is home-made cryptography.
"""

from __future__ import annotations

import base64
import hashlib
import json
from dataclasses import dataclass
from pathlib import Path

from curator import atomic
from curator.bundle.reader import MANIFEST, open_bundle
from curator.errors import CuratorError
from curator.limits import DEFAULT
from curator.model import LimitSettings
from curator.store import ARCHIVE_SUFFIX

FORMAT = "curator-bundle-signature"
SUFFIX = ".sig"
MAX_KEY_BYTES = 64 * 1024
# Signed: this context, then the manifest's bytes; a signature made for anything else
# (another program's message with the same key) never passes for a bundle's.
CONTEXT = b"curator bundle manifest v1\0"


@dataclass(frozen=True)
class Signed:
    path: Path  # the signature file written
    manifest_sha256: str
    public_key: str  # base64 of the raw 32-byte key: who signed
    exit_code: int = 0

    def as_json(self) -> dict[str, str]:
        return {
            "signature": str(self.path),
            "manifest_sha256": self.manifest_sha256,
            "public_key": self.public_key,
        }

    def render(self) -> str:
        return f"signed: {self.path} (public key {self.public_key})"


def signature_path(bundle: Path) -> Path:
    """Where a bundle's detached signature lives: bundles/1.0.0.sig for bundles/1.0.0 and
    for bundles/1.0.0.tar.gz alike."""
    name = bundle.name.removesuffix(ARCHIVE_SUFFIX)
    return bundle.with_name(name + SUFFIX)


def sign_bundle(
    bundle: Path, key_file: Path, out: Path | None = None, limits: LimitSettings = DEFAULT
) -> Signed:
    """Sign the bundle's manifest with the Ed25519 private key in `key_file` (PEM)."""
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey
    from cryptography.hazmat.primitives.serialization import load_pem_private_key

    manifest = _manifest_bytes(bundle, limits)
    try:
        key = load_pem_private_key(_key_bytes(key_file), password=None)
    except (ValueError, TypeError) as error:
        raise CuratorError(f"{key_file}: not an unencrypted PEM private key ({error})") from None
    if not isinstance(key, Ed25519PrivateKey):
        raise CuratorError(f"{key_file}: not an Ed25519 key (openssl genpkey -algorithm ed25519)")
    public = _raw_public(key.public_key())
    digest = hashlib.sha256(manifest).hexdigest()
    document = {
        "format": FORMAT,
        "version": 1,
        "algorithm": "ed25519",
        "manifest_sha256": digest,
        "public_key": public,
        "signature": base64.b64encode(key.sign(CONTEXT + manifest)).decode(),
    }
    target = out or signature_path(bundle)
    atomic.write_text(target, json.dumps(document, indent=2) + "\n", mode=0o644)
    return Signed(target, digest, public)


def signature_problem(
    bundle: Path, key_file: Path, signature: Path | None = None, limits: LimitSettings = DEFAULT
) -> str | None:
    """Why the bundle's signature does not pass with the public key in `key_file` (PEM);
    None when it does."""
    from cryptography.exceptions import InvalidSignature
    from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PublicKey
    from cryptography.hazmat.primitives.serialization import load_pem_public_key

    try:
        key = load_pem_public_key(_key_bytes(key_file))
    except (ValueError, TypeError) as error:
        raise CuratorError(f"{key_file}: not a PEM public key ({error})") from None
    if not isinstance(key, Ed25519PublicKey):
        raise CuratorError(f"{key_file}: not an Ed25519 public key")
    path = signature or signature_path(bundle)
    if not path.is_file():
        return f"no signature at {path} (curator bundle sign)"
    try:
        document = json.loads(path.read_bytes()[:MAX_KEY_BYTES])
        if document.get("format") != FORMAT or document.get("algorithm") != "ed25519":
            return f"{path} is not a curator bundle signature"
        raw = base64.b64decode(document["signature"], validate=True)
    except (ValueError, KeyError, TypeError, AttributeError):
        return f"{path} is not a curator bundle signature"
    manifest = _manifest_bytes(bundle, limits)
    try:
        key.verify(raw, CONTEXT + manifest)
    except InvalidSignature:
        if document.get("public_key") != _raw_public(key):
            return f"signed by another key than {key_file.name}"
        return "the signature does not match the manifest (changed since it was signed)"
    return None


def _manifest_bytes(bundle: Path, limits: LimitSettings) -> bytes:
    files = open_bundle(bundle, limits)
    if not files.has(MANIFEST):
        raise CuratorError(f"{files.label}: no {MANIFEST}")
    return files.read(MANIFEST)


def _key_bytes(path: Path) -> bytes:
    try:
        with open(path, "rb") as handle:
            return handle.read(MAX_KEY_BYTES)
    except OSError as error:
        raise CuratorError(f"{path}: cannot read the key ({error.strerror})") from None


def _raw_public(key: object) -> str:
    from cryptography.hazmat.primitives.serialization import Encoding, PublicFormat

    raw = key.public_bytes(Encoding.Raw, PublicFormat.Raw)  # type: ignore[attr-defined]
    return base64.b64encode(raw).decode()
