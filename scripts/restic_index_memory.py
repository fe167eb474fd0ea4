#!/usr/bin/env python3
"""Memory per blob of restic's and rustic's loaded index, measured the way
`cargo bench --features testing --bench index_memory` measures tangle's (issue 37): a
synthetic index of N blobs, 1,000 blobs a pack (tangle's bench: 1,000 a extent), and the
growth of the peak resident set of a command that loads the whole index to find one
blob (restic `cat blob ID`, rustic `cat data-blob ID`: the lookup a restore makes; it then fails, as the one pack file
there holds zeros)
over the same command on an index of one blob, divided by N.

    scripts/restic_index_memory.py [--rustic BINARY] N...

The repository is made by the real `restic init --repository-version 1` (its key and
config), then index files are written as restic writes them (JSON, AES-256-CTR and
Poly1305-AES under the master key, named by their SHA-256); the only pack file is the
looked-up blob's, zeros, so that the read fails at once instead of being retried. Needs restic on the PATH and Python's
`cryptography` package. Prints one line per tool and N: the tool, N, bytes a blob.
"""
import base64
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile

from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
from cryptography.hazmat.primitives import poly1305

PASSWORD = "index-memory"
BLOBS_PER_PACK = 1000
PACKS_PER_INDEX_FILE = 50


def aes_ctr(key, iv, data):
    c = Cipher(algorithms.AES(key), modes.CTR(iv)).encryptor()
    return c.update(data) + c.finalize()


def poly1305_aes(k, r, nonce, data):
    """restic's MAC: Poly1305 with r, and s = AES_k(nonce)."""
    e = Cipher(algorithms.AES(k), modes.ECB()).encryptor()
    s = e.update(nonce) + e.finalize()
    return poly1305.Poly1305.generate_tag(r + s, data)


class Key:
    def __init__(self, enc, k, r):
        self.enc, self.k, self.r = enc, k, r

    def open(self, blob):
        iv, ct, mac = blob[:16], blob[16:-16], blob[-16:]
        if poly1305_aes(self.k, self.r, iv, ct) != mac:
            raise ValueError("MAC mismatch: wrong password or not a restic object")
        return aes_ctr(self.enc, iv, ct)

    def seal(self, plain):
        iv = os.urandom(16)
        ct = aes_ctr(self.enc, iv, plain)
        return iv + ct + poly1305_aes(self.k, self.r, iv, ct)


def master_key(repo):
    keys = os.listdir(os.path.join(repo, "keys"))
    with open(os.path.join(repo, "keys", keys[0])) as f:
        kf = json.load(f)
    derived = hashlib.scrypt(PASSWORD.encode(), salt=base64.b64decode(kf["salt"]), n=kf["N"],
                             r=kf["r"], p=kf["p"], dklen=64, maxmem=1 << 30)
    user = Key(derived[:32], derived[32:48], derived[48:64])
    m = json.loads(user.open(base64.b64decode(kf["data"])))
    return Key(base64.b64decode(m["encrypt"]), base64.b64decode(m["mac"]["k"]),
               base64.b64decode(m["mac"]["r"]))


def write_index(repo, key, n, rng):
    """N blobs in packs of BLOBS_PER_PACK, PACKS_PER_INDEX_FILE packs an index file; the
    id of the last blob."""
    made, last, pack = 0, None, None
    while made < n:
        packs = []
        for _ in range(PACKS_PER_INDEX_FILE):
            if made >= n:
                break
            count = min(BLOBS_PER_PACK, n - made)
            blobs = [{"id": rng.randbytes(32).hex(), "type": "data", "offset": i * 16384,
                      "length": 16000} for i in range(count)]
            packs.append({"id": rng.randbytes(32).hex(), "blobs": blobs})
            last, pack = blobs[-1]["id"], packs[-1]["id"]
            made += count
        sealed = key.seal(json.dumps({"packs": packs}).encode())
        name = hashlib.sha256(sealed).hexdigest()
        with open(os.path.join(repo, "index", name), "wb") as f:
            f.write(sealed)
    os.makedirs(os.path.join(repo, "data", pack[:2]), exist_ok=True)
    with open(os.path.join(repo, "data", pack[:2], pack), "wb") as f:
        f.write(bytes(BLOBS_PER_PACK * 16384))
    return last


def peak_kib(cmd, env):
    """The peak RSS of CMD in KiB. CMD fails decrypting the blob (zeros), after the index
    loaded; any other failure (a blob not found: a broken index) is raised."""
    out = subprocess.run(["/usr/bin/time", "-f", "%M"] + cmd, env=env, capture_output=True,
                         text=True)
    err = out.stderr.lower()
    if out.returncode == 0 or not any(w in err for w in ("ciphertext", "decrypt", "mac")):
        raise RuntimeError("%s did not fail decrypting: %s" % (" ".join(cmd), out.stderr[-800:]))
    return int(out.stderr.strip().splitlines()[-1])


def measure(tools, n, work):
    repos = {}
    env = dict(os.environ, RESTIC_PASSWORD=PASSWORD, RUSTIC_PASSWORD=PASSWORD,
               XDG_CONFIG_HOME=os.path.join(work, "config"))
    for count in (1, n):
        repo = os.path.join(work, "repo-%d" % count)
        subprocess.run(["restic", "init", "--repository-version", "1", "-r", repo],
                       env=env, check=True, capture_output=True)
        repos[count] = (repo, write_index(repo, master_key(repo), count, random.Random(count)))
    results = []
    for name, binary in tools:
        def run(repo_blob):
            repo, blob = repo_blob
            if name == "rustic":
                cmd = [binary, "-r", repo, "--no-cache", "--no-progress", "cat", "data-blob", blob]
            else:
                cmd = [binary, "-r", repo, "--no-cache", "-q", "cat", "blob", blob]
            return peak_kib(cmd, env)
        base, loaded = run(repos[1]), run(repos[n])
        results.append((name, n, (loaded - base) * 1024 / n))
    for repo, _ in repos.values():
        shutil.rmtree(repo)
    return results


def main(argv):
    tools = [("restic", shutil.which("restic") or "restic")]
    counts = []
    args = argv[1:]
    while args:
        a = args.pop(0)
        if a == "--rustic" and args:
            tools.append(("rustic", args.pop(0)))
        elif a.isdigit() and int(a) > 1:
            counts.append(int(a))
        else:
            sys.stderr.write(__doc__)
            return 2
    if not counts:
        counts = [10**6, 10**7]
    work = tempfile.mkdtemp(prefix="restic-index-memory.", dir=os.environ.get("TMPDIR", "/var/tmp"))
    try:
        for n in counts:
            for tool, count, per_blob in measure(tools, n, work):
                print("%s %d %.1f" % (tool, count, per_blob), flush=True)
    finally:
        shutil.rmtree(work, ignore_errors=True)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
