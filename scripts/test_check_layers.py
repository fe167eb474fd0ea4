"""Tests of scripts/check_layers.py: the crate passes, and each way of naming a module
above is caught.

    python3 -m unittest discover -s scripts -p 'test_*.py'
"""

import os
import tempfile
import unittest

import check_layers as cl

SRC = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "src")


def violations(files):
    """check_layers over a source tree of `files` ({path under src/: text})."""
    with tempfile.TemporaryDirectory() as src:
        for path, text in files.items():
            full = os.path.join(src, path)
            os.makedirs(os.path.dirname(full), exist_ok=True)
            with open(full, "w", encoding="utf-8") as f:
                f.write(text)
        return cl.check(src)


class Crate(unittest.TestCase):
    def test_the_crate_keeps_its_layers(self):
        self.assertEqual(cl.check(SRC), [])


class Violations(unittest.TestCase):
    def test_a_use_of_a_higher_layer(self):
        v = violations({"codec/mod.rs": "mod x;\nuse crate::extent::ExtentName;\n"})
        self.assertEqual(v, ["src/codec/mod.rs:2: codec uses extent"])

    def test_a_path_in_code_and_a_group(self):
        v = violations({
            "extent/builder.rs": "fn f() { crate::content::short_hex(&[]); }\n",
            "content/index.rs": "use crate::{\n    error::Result,\n    repo::Config,\n};\n",
        })
        self.assertEqual(v, ["src/content/index.rs:3: content uses repo",
                             "src/extent/builder.rs:1: extent uses content"])

    def test_a_layer_beside(self):
        v = violations({"codec/rs.rs": "use crate::remote::Remote;\n",
                        "crypto/mod.rs": "use crate::pathmatch::PathMatcher;\n"})
        self.assertEqual(v, ["src/codec/rs.rs:1: codec uses remote",
                             "src/crypto/mod.rs:1: crypto uses pathmatch"])

    def test_the_remote_layer_inside_repo(self):
        v = violations({
            "repo/remote/local.rs": "use crate::repo::Repository;\n",
            "repo/remote/mod.rs": "pub(in crate::repo) fn f() {}\n",
            "repo/write.rs": "use crate::remote::Remote;\nuse crate::repo::remote::local;\n",
            "codec/mod.rs": "use crate::repo::remote::Remote;\n",
        })
        self.assertEqual(v, ["src/codec/mod.rs:1: codec uses remote",
                             "src/repo/remote/local.rs:1: remote uses repo"])

    def test_super_up_to_the_crate_root(self):
        v = violations({
            "codec/mod.rs": "use super::extent::Pointer;\n",
            "codec/rs.rs": "use super::coding::Coding;\nuse super::super::ops::x;\n",
            "util.rs": "mod tests {\n    use super::parse;\n    use super::super::repo::x;\n}\n",
        })
        self.assertEqual(v, ["src/codec/mod.rs:1: codec uses extent",
                             "src/codec/rs.rs:2: codec uses ops",
                             "src/util.rs:3: util uses repo"])

    def test_comments_and_strings_are_not_dependencies(self):
        v = violations({"codec/mod.rs": (
            "//! See [`crate::extent::Certificate`].\n"
            "/* crate::repo */\n"
            "const URL: &str = \"s3://crate::ops\"; // crate::content\n"
            "const C: char = '{';\n"
            "use crate::error::Result;\n")})
        self.assertEqual(v, [])

    def test_an_unknown_module(self):
        v = violations({"newthing.rs": "use crate::error::Result;\n",
                        "codec/mod.rs": "use crate::newthing::X;\n"})
        self.assertEqual(len(v), 2)
        self.assertIn("src/codec/mod.rs:1: codec uses unknown `crate::newthing`", v)


if __name__ == "__main__":
    unittest.main()
