"""How a list file is imported: start here (docs/lists.md has the details).

From the browser (the officer's import page, lists/views.py):

1. ``list_preview`` (preview.py): the file's first rows as the import would read them,
   before anything is stored.
2. ``list_import_request`` (jobs.py): the uploaded file is stored in pieces
   (ListImportChunk) with its ListImportJob, and the Celery task ``ratings.import_list``
   (lists/tasks.py) is queued once that commits.
3. ``list_import_run`` (jobs.py), on a worker: the pieces are copied to a temporary file and
   imported, with the job's progress and outcome (the counts, or the row-numbered problems).

From the command line, ``manage.py import_list`` calls the import itself at once:

4. ``list_import`` (importer.py): one transaction, all or nothing. The file is read as a stream
   (source.py: bytes in pieces, decoded, cut into lines), its rows become COPY text for a
   staging table (rows.py), are typed and checked in SQL, then players and ratings are written
   set-based (sql.py holds every statement); result.py holds what it reads and answers (its
   formats and targets, its phases, ListImportResult, ListImportError).

The reading of the formats themselves (FIDE TXT and XML, CSV) is the pure package
formats.lists.
"""

from lists.imports.importer import ListImportError, ListImportResult, list_import
from lists.imports.jobs import list_import_request, list_import_run
from lists.imports.preview import list_preview

__all__ = [
    "ListImportError",
    "ListImportResult",
    "list_import",
    "list_import_request",
    "list_import_run",
    "list_preview",
]
