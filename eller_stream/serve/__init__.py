"""``eller-stream serve``: the rows over HTTP, and a viewer that scrolls them.

:mod:`._request` parses and answers a rows request (no HTTP in it);
:mod:`.app` is the ASGI app (Starlette) over it; :mod:`._protocol` has
uvicorn answer what its HTTP parser refuses with the API's JSON; ``static/``
holds the viewer page and the JavaScript module. It needs the ``[serve]`` extra
(``pip install '.[serve]'`` from a clone).
"""
