"""The built-in rule sets with their boards and options (no token)."""

from __future__ import annotations

from typing import Any

from flask.views import MethodView

from api.bank import tablebank
from api.framework import Blueprint
from schemas.rulesets import ParameterListSchema, RuleSetListSchema, RuleSetSchema

rulesets_blp = Blueprint(
    "rulesets", __name__, url_prefix="/api/v1/rulesets", description="The rule sets."
)
parameters_blp = Blueprint(
    "parameters",
    __name__,
    url_prefix="/api/v1/parameters",
    description="The parameters a rule set may give.",
)


@rulesets_blp.route("")
class RuleSets(MethodView):
    """The built-in rule sets (``/api/v1/rulesets``)."""

    @rulesets_blp.response(200, RuleSetListSchema)
    @rulesets_blp.doc(operationId="list_rulesets")
    def get(self) -> Any:
        """Every built-in rule set, whole."""
        return {"items": tablebank().rulesets()}


@rulesets_blp.route("/<name>")
class RuleSet(MethodView):
    """One rule set by its name (``/api/v1/rulesets/<name>``)."""

    @rulesets_blp.response(200, RuleSetSchema)
    @rulesets_blp.alt_response(404, description="No rule set of that name.")
    @rulesets_blp.doc(operationId="get_ruleset")
    def get(self, name: str) -> Any:
        """One rule set: its board, deeds (with their ids), parameters and options."""
        return tablebank().ruleset(name)


@parameters_blp.route("")
class Parameters(MethodView):
    """The parameters a rule set may give (``/api/v1/parameters``)."""

    @parameters_blp.response(200, ParameterListSchema)
    @parameters_blp.doc(operationId="list_parameters")
    def get(self) -> Any:
        """Every parameter a rule set may give, as the server checks documents with them."""
        return {"parameters": tablebank().parameters()}
