"""Model definitions, with shape checks that stay cheap under tracing."""
import torch
from torch import nn
from torch.fx.experimental.symbolic_shapes import definitely_false, definitely_true


def check_features(x, expected):
    """Fail early when the feature size is provably wrong; symbolic sizes pass through."""
    if definitely_false(x.shape[-1] == expected):
        raise ValueError(f"expected {expected} features, got {x.shape[-1]}")


def is_single_example(x):
    return definitely_true(x.shape[0] == 1)


def _rescale(logits):
    return logits * (30.0 / logits.abs().amax())


def _unchanged(logits):
    return logits


class TinyClassifier(nn.Module):
    def __init__(self, in_features=32, hidden=64, num_classes=10):
        super().__init__()
        self.in_features = in_features
        self.net = nn.Sequential(
            nn.Linear(in_features, hidden),
            nn.ReLU(),
            nn.Linear(hidden, num_classes),
        )

    def forward(self, x):
        check_features(x, self.in_features)
        logits = self.net(x)
        # Data-dependent clipping that stays one graph under torch.export.
        logits = torch.cond(logits.abs().amax() > 30.0, _rescale, _unchanged, (logits,))
        if is_single_example(x):
            return logits.squeeze(0)
        return logits


class TokenEncoder(nn.Module):
    def __init__(self, vocab_size=1000, dim=64):
        super().__init__()
        self.embed = nn.Embedding(vocab_size, dim)
        self.proj = nn.Linear(dim, dim)

    def forward(self, tokens, mask):
        hidden = self.proj(self.embed(tokens))
        weights = mask.unsqueeze(-1).to(hidden.dtype)
        return (hidden * weights).sum(dim=1) / weights.sum(dim=1).clamp(min=1.0)


def example_inputs(batch=4, in_features=32, seq_len=16):
    return {
        "classifier": (torch.randn(batch, in_features),),
        "encoder": (torch.randint(0, 1000, (batch, seq_len)), torch.ones(batch, seq_len)),
    }
