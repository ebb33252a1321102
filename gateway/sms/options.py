"""SmsOptions: the `sms` section of the GatewayIngress `user_config` (ray_config.yaml), apart
from the handler so that the settings (every CLI command's start-up) need not import the channel."""
from __future__ import annotations

from pydantic import BaseModel, ConfigDict, Field


class SmsOptions(BaseModel):
    model_config = ConfigDict(extra="forbid")  # a misspelt option in ray_config.yaml is refused
    inline_budget_s: float = Field(default=10.0, gt=0, lt=15.0)  # Twilio gives up at 15 s
    redelivery_wait_s: float = Field(default=4.0, ge=0, lt=15.0)
    poll_s: float = Field(default=0.05, gt=0)
    # An inbound still `accepted` this long after arriving was abandoned by a replica that died
    # mid-turn (gateway.sms.abandoned); well past the inline budget plus a turn's own budget.
    abandoned_after_s: float = Field(default=120.0, ge=30.0)
    sweep_every_s: float = Field(default=30.0, gt=0)
