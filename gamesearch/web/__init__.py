"""The browser board: a JSON API over every registered game and searcher, and one page.

``gamesearch serve`` runs it. :mod:`gamesearch.web.service` does the work of each
request in plain Python (no web framework needed to import or test it);
:mod:`gamesearch.web.app` is the Starlette application around it (the ``web``
extra); ``static/`` holds the page (plain HTML, CSS and JavaScript, no build step).
"""
