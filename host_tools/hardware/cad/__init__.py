"""The wooden board and its pieces as parametric CAD, generated from
``hardware/board.json``: laser-cut panels (DXF, SVG), pieces (STL, STEP), the
whole board (STEP), a dimensioned drawing (SVG) and the parts list (CSV).

``params``, ``layout``, ``glyphs``, ``pieces``, ``bom`` and the SVG writers in
``drawing`` are plain Python; the DXF files need ``ezdxf`` and the solids need
``build123d``, both in the ``cad`` extra (``pip install -e '.[cad]'``).
Run ``senet-board hardware`` to regenerate.
"""
