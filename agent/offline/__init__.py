"""The built-in offline model (a pydantic-ai FunctionModel)."""
