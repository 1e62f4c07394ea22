"""The column schemas of the files an asset wrote, as Dagster materialization metadata."""

from collections.abc import Sequence
from pathlib import Path

import dagster as dg

from gym_pipeline.gym import tables

COLUMN_SCHEMA = "dagster/column_schema"  # Dagster's key for an asset's columns (`TableMetadataSet.column_schema`)


def _schema(path: Path) -> dg.TableSchema:
    return dg.TableSchema(columns=[
        dg.TableColumn(column.name, column.type, description=column.description,
                       constraints=dg.TableColumnConstraints(nullable=column.nullable))
        for column in tables.columns(path)
    ])


def column_schemas(run_dir: Path, primary: str, others: Sequence[str] = ()) -> dict[str, dg.MetadataValue]:
    """`dagster/column_schema`: the columns of the asset's main file in `run_dir` (the UI's Columns view);
    `columns/<file>`: those of each other table it wrote there, when that file has rows."""
    metadata = {}
    if (run_dir / primary).exists():
        metadata[COLUMN_SCHEMA] = dg.MetadataValue.table_schema(_schema(run_dir / primary))
    for name in others:
        if (run_dir / name).exists() and (schema := _schema(run_dir / name)).columns:
            metadata[f"columns/{name}"] = dg.MetadataValue.table_schema(schema)
    return metadata
