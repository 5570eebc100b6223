"""``eller-stream serve``: the rows and the plane over HTTP, and a viewer of both.

:mod:`._request` parses and answers a rows request, :mod:`._region` a
region of the plane (no HTTP in either; :mod:`._query` reads a query's
values for both, :mod:`._answer` encodes their answers);
:mod:`.app` is the ASGI app (Starlette) over them; :mod:`._protocol` has
uvicorn answer what its HTTP parser refuses with the API's JSON; ``static/``
holds the viewer page, its scripts (``viewer.js`` the banded maze's mode,
``plane_view.js`` the plane's, ``numbers.js`` their BigInt helpers) and the
JavaScript module. It needs the ``[serve]`` extra
(``pip install '.[serve]'`` from a clone).
"""
