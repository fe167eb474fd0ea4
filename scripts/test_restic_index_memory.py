"""Tests of restic_index_memory.py: its sealing is restic's (restic itself reads the
index it writes, where restic is installed), and a damaged object is refused."""
import os
import random
import shutil
import subprocess
import tempfile
import unittest

import restic_index_memory as m


class Sealing(unittest.TestCase):
    def test_seal_then_open_and_a_flipped_byte_is_refused(self):
        key = m.Key(os.urandom(32), os.urandom(16), os.urandom(16))
        sealed = key.seal(b"an index")
        self.assertEqual(key.open(sealed), b"an index")
        bad = bytearray(sealed)
        bad[20] ^= 1
        with self.assertRaises(ValueError):
            key.open(bytes(bad))

    @unittest.skipUnless(shutil.which("restic"), "restic is not installed")
    def test_restic_lists_the_blobs_of_the_written_index(self):
        with tempfile.TemporaryDirectory() as t:
            repo = os.path.join(t, "repo")
            env = dict(os.environ, RESTIC_PASSWORD=m.PASSWORD)
            subprocess.run(["restic", "init", "--repository-version", "1", "-r", repo],
                           env=env, check=True, capture_output=True)
            last = m.write_index(repo, m.master_key(repo), 1500, random.Random(7))
            out = subprocess.run(["restic", "-r", repo, "--no-cache", "-q", "list", "blobs"],
                                 env=env, check=True, capture_output=True, text=True).stdout
            lines = out.split("\n")
            self.assertEqual(len([x for x in lines if x.startswith("data ")]), 1500)
            self.assertIn("data " + last, lines)


if __name__ == "__main__":
    unittest.main()
