"""Text drawn as a picture for the receipt printer: nothing of a letter is cut off."""

import pytest
from PIL import ImageFont

from tdsystem.printing import glyphs


@pytest.mark.parametrize("language", ["ja", "ar", "vi", "en"])
def test_descenders_and_commas_stay_on_the_paper(language):
    """A comma's tail and a "g" reach below the font size's box; cut off, 20,000 printed as
    20.000 on the Japanese receipts. The line leaves a white row under the lowest ink."""
    image = glyphs.line_image("gjpy", "20,000 cage", width=576, language=language)
    face = glyphs.font(glyphs.script_of("gjpy20,000", language), glyphs.SIZES["text"])
    if isinstance(face, ImageFont.FreeTypeFont):
        assert image.height >= sum(face.getmetrics())
    bottom = [image.getpixel((x, image.height - 1)) for x in range(image.width)]
    assert all(bottom), "ink on the last row: the letters are cut off"
    assert image.mode == "1"
