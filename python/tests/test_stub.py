"""The type stub python/nvmodel/_nvmodel.pyi names exactly what the
extension has: every public function, type, constant, method and attribute
(so that py.typed stays true)."""
import ast
import os

import nvmodel
from nvmodel import _nvmodel

STUB = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "nvmodel", "_nvmodel.pyi")
# The stub's own aliases, not names of the module.
ALIASES = {"Buffer", "Words", "ApertureArg", "TargetArg", "PlaceArg"}


def stub_names():
    tree = ast.parse(open(STUB).read())
    top, classes = set(), {}
    for node in tree.body:
        if isinstance(node, ast.FunctionDef):
            top.add(node.name)
        elif isinstance(node, ast.AnnAssign):
            top.add(node.target.id)
        elif isinstance(node, ast.Assign):
            top.update(t.id for t in node.targets)
        elif isinstance(node, ast.ClassDef):
            top.add(node.name)
            members = set()
            for m in node.body:
                if isinstance(m, ast.FunctionDef):
                    members.add(m.name)
                elif isinstance(m, ast.AnnAssign):
                    members.add(m.target.id)
            classes[node.name] = members
    return top - ALIASES, classes


def public(names):
    return {n for n in names if not n.startswith("_")}


def test_stub_names_the_module():
    top, classes = stub_names()
    assert top == public(dir(_nvmodel))
    for name, members in classes.items():
        cls = getattr(_nvmodel, name)
        base = cls.__mro__[1]
        own = public(set(dir(cls)) - set(dir(base)))
        if name == "Place":
            own -= {"n_fields", "n_sequence_fields", "n_unnamed_fields"}
        assert public(members) == own, name


def test_package_is_typed():
    assert os.path.exists(os.path.join(os.path.dirname(nvmodel.__file__), "py.typed"))
    assert os.path.exists(os.path.join(os.path.dirname(nvmodel.__file__), "_nvmodel.pyi"))
