"""griffe extension: the docstrings' Sphinx roles become mkdocstrings cross-references at build time.

The package's docstrings are Google style with Sphinx roles inline (``:class:`~regcontact.rigid.AbstractImpactLaw```,
``:func:`rigid_slip```, ``:mod:`regcontact.compliant```, ``:data:``, ``:attr:``, ``:meth:``, ``:exc:``); mkdocstrings
would print them literally. Once the package is loaded, each role is resolved against it, as Sphinx would: a dotted
path as written, a short name in the scope of the object whose docstring it is (its module's imports included), else
the one object of the package with that name. A resolved role becomes an autorefs cross-reference to the object's
canonical path, marked optional (as mkdocstrings marks the annotations it links): it links where the API pages
render the object and stays code where they do not (a private helper), so ``mkdocs build --strict`` never fails on
it. A role that names nothing in the package (a typo, an outside object) is rendered as code. ``~`` shows the last
component only, as in Sphinx. The docstrings themselves are not changed.
"""

from __future__ import annotations

import html
import re
from collections import defaultdict
from typing import Any

import griffe

ROLE = re.compile(r":(?:py:)?(?:class|func|mod|data|attr|meth|exc|obj|const):`(~?)([^`<>]+?)`")


def _members(obj: griffe.Object, aliases: list[griffe.Alias]) -> list[griffe.Object]:
    found = [obj]
    for member in obj.members.values():
        if member.is_alias:
            aliases.append(member)
        else:
            found.extend(_members(member, aliases))
    return found


def _privacy(path: str) -> tuple[int, int]:
    """Sort key: fewest private components (the package face the API pages render), then the shortest path."""
    return sum(part.startswith("_") for part in path.split(".")), len(path)


class SphinxRoles(griffe.Extension):
    """Turns Sphinx roles in the loaded package's docstrings into optional autorefs (see the module docstring).

    Also marks the package faces' re-exports public: the house style re-exports as ``from a import X as X``, which
    griffe treats as a private import unless told (the convention of the griffe-public-redundant-alias extension),
    so ``::: regcontact.rigid`` would render the face's docstring and none of what it exports.
    """

    @staticmethod
    def _mark_redundant_alias(alias: griffe.Alias) -> None:
        module = alias.parent
        if module is None or not module.is_module or alias.alias_lineno is None:
            return
        source = "\n".join(module.lines[alias.alias_lineno - 1 : alias.alias_endlineno])
        if re.search(rf"\b{re.escape(alias.name)} as {re.escape(alias.name)}\b", source):
            alias.public = True

    def on_package(self, *, pkg: griffe.Module, loader: griffe.GriffeLoader, **kwargs: Any) -> None:
        aliases: list[griffe.Alias] = []
        objects = _members(pkg, aliases)
        by_name: dict[str, list[str]] = defaultdict(list)
        for obj in objects:
            by_name[obj.name].append(obj.path)
        self.public: dict[str, str] = {}  # canonical path -> its most public path (an alias on a face, or itself)
        for alias in aliases:
            self._mark_redundant_alias(alias)
            try:
                self._unshadow(alias)
                target = alias.final_target.path
            except Exception:  # noqa: BLE001 - an import from outside the package
                continue
            best = self.public.get(target, target)
            self.public[target] = min(best, alias.path, key=_privacy)
        for obj in objects:
            if obj.docstring is not None and ":" in obj.docstring.value:
                text = obj.docstring.value
                obj.docstring.value = ROLE.sub(lambda m, o=obj: self._reference(m, o, loader, by_name), text)

    @staticmethod
    def _unshadow(alias: griffe.Alias) -> None:
        """``from .moreau_jean import moreau_jean as moreau_jean`` in a package: griffe resolves the name to the
        submodule the function shadows; point the alias at the function, as Python does."""
        target = alias.final_target
        if target.is_module and alias.name in target.members and not target.members[alias.name].is_module:
            member = target.members[alias.name]
            alias.target = member.final_target if member.is_alias else member

    def _reference(self, match: re.Match, obj: griffe.Object, loader: griffe.GriffeLoader, by_name) -> str:
        tilde, target = match.group(1), match.group(2).strip().removesuffix("()")
        shown = target.rsplit(".", 1)[-1] if tilde else target
        path = self._resolve(target, obj, loader, by_name)
        code = f"<code>{html.escape(shown)}</code>"
        if path is None:
            return code
        return f'<autoref identifier="{html.escape(path)}" optional>{code}</autoref>'

    def _canonical(self, path: str, loader: griffe.GriffeLoader) -> str | None:
        """The most public path of the object at ``path`` (autorefs' fallback adds its canonical path)."""
        try:
            found = loader.modules_collection.get_member(path)
            path = found.final_target.path if found.is_alias else found.path
        except Exception:  # noqa: BLE001 - anything griffe cannot follow stays code
            return None
        return self.public.get(path, path)

    def _resolve(self, target: str, obj: griffe.Object, loader: griffe.GriffeLoader, by_name) -> str | None:
        if target.startswith(obj.package.name + "."):
            return self._canonical(target, loader)
        head, _, rest = target.partition(".")
        scope: griffe.Object | None = obj
        while scope is not None:
            try:
                path = scope.resolve(head)
            except Exception:  # noqa: BLE001 - not in this scope; try the enclosing one
                scope = scope.parent
                continue
            found = self._canonical(f"{path}.{rest}" if rest else path, loader)
            if found is not None:
                return found
            break
        last = target.rsplit(".", 1)[-1]
        candidates = [p for p in by_name.get(last, []) if p.endswith("." + target)]
        return self._canonical(candidates[0], loader) if len(candidates) == 1 else None
