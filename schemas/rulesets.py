"""The rule sets as the API shows them: their documents, with each deed's id."""

from __future__ import annotations

from typing import Any

from marshmallow import Schema, fields, post_dump


class DocumentSchema(Schema):
    """A data document: the declared fields are documented, the others pass through."""

    @post_dump(pass_original=True)
    def keep_undeclared(
        self, data: dict[str, Any], original: dict[str, Any], **kwargs: Any
    ) -> dict[str, Any]:
        return {**{k: v for k, v in original.items() if k not in self.fields}, **data}


class DeedSchema(DocumentSchema):
    id = fields.String(metadata={"description": "the deed's slug, used in transactions"})
    name = fields.String()
    position = fields.Integer()
    kind = fields.String(metadata={"description": "street, railroad or utility"})
    group = fields.String()
    price = fields.Integer()
    mortgage_value = fields.Integer()
    rents = fields.List(fields.Integer())
    house_price = fields.Integer()
    hotel_price = fields.Integer()


class RuleSetSchema(DocumentSchema):
    name = fields.String()
    title = fields.String()
    currency = fields.String()
    players = fields.Dict(keys=fields.String(), values=fields.Integer())
    parameters = fields.Dict()
    options = fields.Dict(keys=fields.String(), values=fields.Dict())
    spaces = fields.List(fields.Dict())
    deeds = fields.List(fields.Nested(DeedSchema))


class RuleSetListSchema(Schema):
    items = fields.List(fields.Nested(RuleSetSchema))
