"""A filled lease application as a real AcroForm PDF (reportlab's form fields), with
synthetic people in its fields, and the same form damaged in the ways real files are.

The field kinds and their values follow PDF 32000-1, 12.7 (interactive forms): text fields
(/Tx) hold their value in /V, checkboxes and radio buttons (/Btn) name their state, a radio
group's buttons being the /Kids of one field, choice fields (/Ch) an option of /Opt.
"""

from __future__ import annotations

import io

# The people in the form: none of these may reach the store.
TENANT = "Marisol Quintanilla"
PHONE = "(503) 284-7719"  # not 555-01XX: those are the pseudonyms phones become
SSN = "527-41-8836"
SECRETS = [TENANT, *TENANT.split(), PHONE, "503-284-7719", "5032847719", SSN, "527418836"]

PRINTED = [
    "RESIDENTIAL LEASE APPLICATION",
    "Please complete every field. The landlord reviews applications within five business days.",
    "Applicants must be at least eighteen years old.",
]
# (name, value, x, y, width, height), in the order they are created: not the page's order.
TEXT_FIELDS = [
    ("SSN", SSN, 330, 600, 160, 18),
    ("Tenant", TENANT, 140, 640, 300, 18),
    ("Phone", PHONE, 140, 600, 160, 22),
    ("monthly_rent", "$1,450.00", 140, 560, 120, 18),
    ("lease_start_date", "March 1, 2026", 330, 560, 160, 18),
    ("co_signer", "", 140, 520, 300, 18),
]
# What the page's text must end with: each filled field in reading order (rows top to bottom,
# left to right), the unchecked box as "No", the empty co-signer left out.
FORM_LINES = [
    f"Tenant: {TENANT}",
    f"Phone: {PHONE}",
    f"SSN: {SSN}",
    "monthly_rent: $1,450.00",
    "lease_start_date: March 1, 2026",
    "pets_allowed: Yes",
    "smoker: No",
    "payment: quarterly",
    "parking: garage",
]
# The field lines that hold nothing personal: kept exactly.
KEPT_LINES = FORM_LINES[3:]


def form_pdf(*, scanned: bool = False) -> bytes:
    """One page: printed text (drawn as text, or as a scanned image of it), and the form."""
    from reportlab.lib.pagesizes import letter
    from reportlab.pdfgen import canvas

    buffer = io.BytesIO()
    page = canvas.Canvas(buffer, pagesize=letter, invariant=1)
    if scanned:
        _draw_scan(page, letter)
    else:
        page.setFont("Helvetica", 11)
        for k, line in enumerate(PRINTED):
            page.drawString(72, 720 - 16 * k, line)
    form = page.acroForm
    for name, value, x, y, width, height in TEXT_FIELDS:
        form.textfield(name=name, value=value, x=x, y=y, width=width, height=height)
    form.checkbox(name="pets_allowed", checked=True, x=140, y=480, size=16)
    form.checkbox(name="smoker", checked=False, x=330, y=480, size=16)
    form.radio(name="payment", value="monthly", selected=False, x=140, y=440, size=16)
    form.radio(name="payment", value="quarterly", selected=True, x=330, y=440, size=16)
    form.choice(
        name="parking",
        value="garage",
        options=["none", "garage", "street"],
        x=140,
        y=400,
        width=120,
        height=18,
    )
    page.showPage()
    page.save()
    return buffer.getvalue()


def _draw_scan(page, size: tuple[float, float]) -> None:
    """The printed lines as a 300 dpi greyscale image: a page with no text layer."""
    import pypdfium2 as pdfium
    from reportlab.lib.utils import ImageReader

    from tests.ingest.conftest import generate

    printed = pdfium.PdfDocument(generate.text_pdf([PRINTED]))
    image = printed[0].render(scale=300 / 72, grayscale=True).to_pil().convert("L")
    png = io.BytesIO()
    image.save(png, format="PNG")
    png.seek(0)
    page.drawImage(ImageReader(png), 0, 0, width=size[0], height=size[1])


def edited(data: bytes, change) -> bytes:
    """The PDF after `change(writer)`: pypdf edits the form's objects in place."""
    from pypdf import PdfReader, PdfWriter

    writer = PdfWriter(clone_from=PdfReader(io.BytesIO(data)))
    change(writer)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def widget(writer, name: str):
    """The widget annotation of the field named `name` on page 1."""
    for reference in writer.pages[0]["/Annots"]:
        annotation = reference.get_object()
        if annotation.get("/T") == name:
            return annotation
    raise KeyError(name)
