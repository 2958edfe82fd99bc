"""setlab in the browser: play SET by the rules, alone or together, analyse boards, explore AG(P,3).

:func:`create_app` builds the ASGI application that ``setlab serve`` runs under uvicorn: a JSON
API over setlab's own functions, WebSocket rooms, and a page of plain JavaScript modules.
"""

from setlab.web.app import create_app

__all__ = ["create_app"]
