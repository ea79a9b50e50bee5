"""Pure, typed core of subcon: no Celery imports, no side effects at import time."""
