"""The rules engine's own exception."""

from __future__ import annotations


class RuleError(ValueError):
    """A hand the rules do not allow, or input the engine cannot read.

    ``message`` is the bare sentence; ``action_index`` (from 0) names the action at fault and
    ``rule`` the rule that forbids it ("D3"). ``str()`` gives the one-line form shown to
    people and printed by the command line:
    ``action 3: Carol may not raise to 10: the minimum raise is to 16 (D3)``.
    """

    def __init__(
        self,
        message: str,
        action_index: int | None = None,
        rule: str | None = None,
        cite: str | None = None,
    ) -> None:
        self.message = message
        self.action_index = action_index
        self.rule = rule
        # The concept of the rule sets the refusal applies ("raise_amounts"), so that a hand
        # naming its rule set is refused with that set's number (``in_set``).
        self.cite = cite
        super().__init__(self._render())

    def _render(self) -> str:
        text = self.message
        if self.action_index is not None:
            text = f"action {self.action_index}: {text}"
        if self.rule:
            text = f"{text} ({self.rule})"
        return text

    def at(self, action_index: int) -> RuleError:
        """The same error, pinned to an action (parsing raises before it knows the index)."""
        return RuleError(self.message, action_index, self.rule, self.cite)

    def in_set(self, rule_set: str | None) -> RuleError:
        """The same error citing the rule's number in ``rule_set`` ("TDA 43") instead of the
        rules digest's ("D3"), where that set numbers it; else itself."""
        if rule_set is None or not self.cite:
            return self
        from tdsystem.engine.rulesets import citation

        number = citation(rule_set, self.cite)
        if not number:
            return self
        return RuleError(self.message, self.action_index, number, self.cite)

    def __reduce__(
        self,
    ) -> tuple[type[RuleError], tuple[str, int | None, str | None, str | None]]:
        # Keeps the fields through pickling (worker processes).
        return (RuleError, (self.message, self.action_index, self.rule, self.cite))
