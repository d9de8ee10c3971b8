"""Small models and the helpers that export, compile and quantize them."""
from legacy_models.models import TinyClassifier, TokenEncoder

__all__ = ["TinyClassifier", "TokenEncoder"]
__version__ = "0.4.2"
