"""Call sites of the Enter records in a collwrap archive.

The tracer writes an Enter's CallSite attribute (a CallingContext) only when the call site
differs from that of the previous Enter of the same region on the same location: an Enter
without the attribute was made from the same call site as that previous one.
"""


class CallSites:
    """Tracks the call sites of one archive; feed it every Enter in stream order."""

    def __init__(self):
        self._last = {}     # (location ref, region ref) -> CallingContext or None
        self.written = 0    # Enters that carried the attribute
        self.inherited = 0  # Enters that took it from the previous Enter of their region

    def of_enter(self, location, event):
        """The CallingContext of `event` (an Enter at `location`), or None if it has none."""
        key = (location._ref, event.region._ref)
        for attribute, value in (event.attributes or {}).items():
            if attribute.name == "CallSite":
                self._last[key] = value
                self.written += 1
                return value
        self.inherited += 1
        return self._last.get(key)
