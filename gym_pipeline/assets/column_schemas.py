"""The column schemas of the files an asset wrote, as Dagster materialization metadata."""

from collections.abc import Sequence
from pathlib import Path

import dagster as dg

from gym_pipeline.core import tables

COLUMN_SCHEMA = "dagster/column_schema"  # Dagster's key for an asset's columns (`TableMetadataSet.column_schema`)


def _schema(path: Path) -> dg.TableSchema | None:
    """The file's columns; None when it is missing or unreadable (a bad line is the profile's and the
    diagnosis's to report, not a reason to fail the stage that wrote the file)."""
    try:
        found = tables.columns(path)
    except (OSError, ValueError):
        return None
    return dg.TableSchema(columns=[
        dg.TableColumn(column.name, column.type, description=column.description,
                       constraints=dg.TableColumnConstraints(nullable=column.nullable))
        for column in found
    ])


def column_schemas(run_dir: Path, primary: str, others: Sequence[str] = ()) -> dict[str, dg.MetadataValue]:
    """`dagster/column_schema`: the columns of the asset's main file in `run_dir` (the UI's Columns view);
    `columns/<file>`: those of each other table it wrote there, when that file has rows."""
    metadata = {}
    if schema := _schema(run_dir / primary):
        metadata[COLUMN_SCHEMA] = dg.MetadataValue.table_schema(schema)
    for name in others:
        if (schema := _schema(run_dir / name)) and schema.columns:
            metadata[f"columns/{name}"] = dg.MetadataValue.table_schema(schema)
    return metadata
