"""Tests of make_many_files.py: the tree is the same bytes every time, and the paths and
the marker are as its docstring says."""
import hashlib
import os
import tempfile
import unittest

import make_many_files as m


def digest(root):
    h = hashlib.sha256()
    for d, dirs, files in sorted(os.walk(root)):
        dirs.sort()
        for name in sorted(files):
            p = os.path.join(d, name)
            h.update(os.path.relpath(p, root).encode())
            with open(p, "rb") as f:
                h.update(f.read())
    return h.hexdigest()


class ManyFiles(unittest.TestCase):
    def test_layout_has_a_level_per_hundredfold(self):
        self.assertEqual(m.layout(100), 0)
        self.assertEqual(m.layout(101), 1)
        self.assertEqual(m.layout(10**6), 2)
        self.assertEqual(m.path_of(123456, 2), os.path.join("d12", "d34", "f56.txt"))

    def test_the_same_tree_every_time_with_distinct_files(self):
        with tempfile.TemporaryDirectory() as t:
            a, b = os.path.join(t, "a"), os.path.join(t, "b")
            self.assertEqual(m.main(["x", "250", a]), 0)
            self.assertEqual(m.main(["x", "250", b]), 0)
            self.assertEqual(digest(a), digest(b))
            files = [os.path.join(d, f) for d, _, fs in os.walk(a) for f in fs if f != m.MARKER]
            self.assertEqual(len(files), 250)
            bodies = set()
            for p in files:
                with open(p, "rb") as f:
                    bodies.add(f.read())
            self.assertEqual(len(bodies), 250)
            # Done already: nothing changes; another count rebuilds it.
            self.assertEqual(m.main(["x", "250", a]), 0)
            self.assertEqual(digest(a), digest(b))
            self.assertEqual(m.main(["x", "120", a]), 0)
            self.assertEqual(sum(len(fs) for _, _, fs in os.walk(a)), 121)

    def test_a_foreign_directory_is_refused(self):
        with tempfile.TemporaryDirectory() as t:
            open(os.path.join(t, "mine"), "w").close()
            self.assertEqual(m.main(["x", "10", t]), 1)
            self.assertTrue(os.path.exists(os.path.join(t, "mine")))


if __name__ == "__main__":
    unittest.main()
