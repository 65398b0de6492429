"""Who is asking: the identity every service is handed with a request (made by
:mod:`winnable.web.players.accounts` from the session cookie).

>>> Viewer(session="abc").owns(None, "abc"), Viewer(user_id=7).owns(8, None), NOBODY.signed_in
(True, False, False)
"""

from __future__ import annotations

import dataclasses


@dataclasses.dataclass(frozen=True)
class Viewer:
    """Who is asking: a signed-in player, a guest with a session, or nobody yet."""

    session: str | None = None
    """The session's digest (None: no valid session cookie)."""
    user_id: int | None = None
    name: str | None = None

    @property
    def signed_in(self) -> bool:
        return self.user_id is not None

    def owns(self, user_id: int | None, guest: str | None) -> bool:
        """True if a game with this owner is this viewer's."""
        if user_id is not None:
            return user_id == self.user_id
        return guest is not None and guest == self.session


NOBODY = Viewer()
"""No session: a request with no (valid) session cookie."""
